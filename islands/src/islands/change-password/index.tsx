// Island entry: <app-island name="change-password" load="interaction" props='{"userName":"…"}'>.
// `__activate: true` (the loader saw a click on the fallback button) opens the dialog on mount.
import type { ChangePasswordProps as ChangePasswordWire } from '../../generated/island-props';
import { defineIsland } from '../../lib/island';
import { activateProp, createMount, stringProp } from '../../lib/mount';
import { ChangePassword, type ChangePasswordProps } from './ChangePassword';

export { ChangePassword };
export type { ChangePasswordProps };

export const island = defineIsland(ChangePassword, (raw): ChangePasswordProps => ({
  userName: stringProp<ChangePasswordWire>(raw, 'userName'),
  defaultOpen: activateProp(raw),
}));

export const mount = createMount(island);
