// The few layout rules the report form needs beyond static/css/app.css (kept here so the
// island brings its own; dense, like the rest of the app).
import type { CSSProperties } from 'react';

export const tabList: CSSProperties = { display: 'flex', flexWrap: 'wrap', gap: 4, marginBottom: 10 };
export const checkGroup: CSSProperties = { border: 0, padding: 0, margin: 0, minWidth: 0 };
export const legend: CSSProperties = { padding: 0, marginBottom: 2, color: 'var(--muted)', fontSize: 12, fontWeight: 500 };
export const checkRow: CSSProperties = { display: 'flex', flexWrap: 'wrap', gap: '2px 12px', maxHeight: 132, overflowY: 'auto' };
export const check: CSSProperties = { display: 'inline-flex', alignItems: 'center', gap: 4, minHeight: 24, whiteSpace: 'nowrap' };
export const pair: CSSProperties = { display: 'flex', gap: 6, alignItems: 'center' };
export const chipList: CSSProperties = { listStyle: 'none', padding: 0, margin: '4px 0 0', display: 'flex', flexWrap: 'wrap', gap: 4 };
export const chipRemove: CSSProperties = { minHeight: 0, padding: '0 3px', lineHeight: '15px' };
