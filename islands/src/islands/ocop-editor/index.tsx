// Island entry: <app-island name="ocop-editor" props='{}'>. Nothing shows until the page
// dispatches `open-ocop` {productId}.
import { defineIsland } from '../../lib/island';
import { createMount } from '../../lib/mount';
import { OcopEditor } from './OcopEditor';

export { OcopEditor };

export type OcopEditorProps = Record<string, never>;

export const island = defineIsland(OcopEditor, (): OcopEditorProps => ({}));

export const mount = createMount(island);
