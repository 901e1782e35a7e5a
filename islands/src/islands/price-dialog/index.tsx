// Island entry: <app-island name="price-dialog"
//   props='{"canModify":true,"uplifts":{"b":500,"c":1000,"d":1500,"e":2000}}'>.
// Nothing shows until the page dispatches `open-price-dialog` {productId}.
import type { PriceDialogProps as PriceDialogWire } from '../../generated/island-props';
import { defineIsland, wire } from '../../lib/island';
import { createMount } from '../../lib/mount';
import { PriceDialog, type PriceDialogProps } from './PriceDialog';
import { toUplifts } from './rules';

export { PriceDialog };
export type { PriceDialogProps };

export function parsePriceDialogProps(raw: unknown): PriceDialogProps {
  const obj = wire<PriceDialogWire>(raw);
  return {
    // Only a literal true grants the modPrc permission.
    canModify: obj.canModify === true,
    uplifts: toUplifts(obj.uplifts),
  };
}

export const island = defineIsland(PriceDialog, parsePriceDialogProps);

export const mount = createMount(island);
