// @vitest-environment node
// The server's HTML of the line editor, through the entry the Rust server runs
// (src/server.tsx), pinned byte for byte: a change to the editor's code that is not meant to
// change its first render must leave these snapshots as they are.
import { describe, expect, it } from 'vitest';
import { render } from '../../server';
import { MARKUP_CASES } from '../../../tests/fixtures/line-editor-markup';

describe('line editor server markup', () => {
  it.each(MARKUP_CASES)('%s', (_name, props) => {
    expect(render('line-editor', JSON.stringify(props))).toMatchSnapshot();
  });
});
