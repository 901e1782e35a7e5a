// @vitest-environment node
// The report form renders on the server without browser globals (DESIGN §6): its tabs and
// the first tab's fields, all from props.
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

describe('report-form SSR', () => {
  it('imports without window/document and renders the tabs from props', async () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
    const entry = await import('../src/islands/report-form/index');
    expect(typeof entry.mount).toBe('function');
    const props = entry.parseReportFormProps({
      tabs: [
        { type: 'invoiceDetails', title: 'Invoices &amp; Credit Notes Detail', canShowCost: true },
        { type: 'slowMoving', title: 'Slow-moving Products Analysis', canShowCost: true },
      ],
      warehouses: [{ id: 5, name: 'Main' }],
      tags: [{ code: 1, label: 'Normal' }],
      today: '2026-11-20',
      maySeeCost: true,
    });
    const html = renderToString(<entry.ReportForm {...props} />);
    expect(html).toContain('Slow-moving Products Analysis');
    expect(html).toContain('value="2026-11-01"');
    expect(html).toContain('value="2026-11-20"');
    expect(html).toContain('Include Cost');
    expect(html).toContain('Main');
  });
});
