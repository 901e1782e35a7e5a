// Island entry: <app-island name="report-form" props='{"tabs":[…],"warehouses":[…],…}'>
// on /sales_reports, /purchase_reports and /inventory_reports (app/crates/web/src/pages/reports.rs).
import { defineIsland } from '../../lib/island';
import { createMount } from '../../lib/mount';
import { ReportForm } from './ReportForm';
import { parseReportFormProps, type ReportFormProps } from './types';

export { ReportForm, parseReportFormProps };
export type { ReportFormProps };

export const island = defineIsland(ReportForm, (raw) => parseReportFormProps(raw));

export const mount = createMount(island);
