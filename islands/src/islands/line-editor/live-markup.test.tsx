// The line editor's markup once the island runs (hydrated over the server's HTML, effects
// done): the live rows (Cell.tsx) are not part of the server's HTML, so they are pinned here.
import { act } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import { render } from '../../server';
import { mount } from './index';
import { MARKUP_CASES } from '../../../tests/fixtures/line-editor-markup';

/** React numbers the ids of client renders (`_r_11_`) from one counter for the whole test
 * file, so a case's ids depend on the cases before it; they are renumbered per case, in
 * order of appearance, so that each snapshot says only what its own case renders. */
function stableIds(html: string): string {
  const seen = new Map<string, string>();
  return html.replace(/_r_[0-9a-z]+_/g, (id) => {
    if (!seen.has(id)) seen.set(id, `client-id-${seen.size + 1}`);
    return seen.get(id)!;
  });
}

describe('line editor live markup', () => {
  it.each(MARKUP_CASES)('%s', async (_name, props) => {
    const el = document.createElement('app-island');
    el.setAttribute('ssr', '');
    el.innerHTML = render('line-editor', JSON.stringify(props));
    document.body.append(el);
    const errors = vi.spyOn(console, 'error');
    let unmount = () => {};
    await act(async () => {
      unmount = mount(el, props);
    });
    expect(errors).not.toHaveBeenCalled();
    expect(stableIds(el.innerHTML)).toMatchSnapshot();
    await act(async () => unmount());
  });
});
