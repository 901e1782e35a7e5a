// The line editor's markup once the island runs (hydrated over the server's HTML, effects
// done): the live rows (Cell.tsx) are not part of the server's HTML, so they are pinned here.
import { act } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { render } from '../../server';
import { mount } from './index';
import { MARKUP_CASES } from '../../../tests/fixtures/line-editor-markup';

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
    expect(el.innerHTML).toMatchSnapshot();
    await act(async () => unmount());
  });
});
