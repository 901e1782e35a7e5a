// Island entry: <app-island name="change-password" load="interaction" props='{"userName":"…"}'>.
// `__activate: true` (the loader saw a click on the fallback button) opens the dialog on mount.
import { activateProp, createMount, stringProp } from '../../lib/mount';
import { ChangePassword, type ChangePasswordProps } from './ChangePassword';

export { ChangePassword };
export type { ChangePasswordProps };

export const mount = createMount(ChangePassword, (raw): ChangePasswordProps => ({
  userName: stringProp(raw, 'userName'),
  defaultOpen: activateProp(raw),
}));
