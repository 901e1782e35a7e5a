// Island entry: <app-island name="report-form" props='{"tabs":[…],"warehouses":[…],…}'>
// on /sales_reports, /purchase_reports and /inventory_reports (app/src/web/reports.rs).
import { createMount } from '../../lib/mount';
import { ReportForm } from './ReportForm';
import { parseReportFormProps, type ReportFormProps } from './types';

export { ReportForm, parseReportFormProps };
export type { ReportFormProps };

export const mount = createMount(ReportForm, (raw) => parseReportFormProps(raw));
