// Page entry loaded by every page (templates/layout/base.html, a module script found in the
// Vite manifest under "src/date-input.ts"): wires the server-rendered date fields.
import { enhanceDateInputs } from './lib/date-input-dom';

enhanceDateInputs(document);
