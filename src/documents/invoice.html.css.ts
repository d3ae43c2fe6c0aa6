/**
 * The share page's stylesheet: the PDF's layout in CSS, readable at 390 px, and printable on A4 (the
 * PDF link and the stamp's colour aside, print shows what the PDF shows).
 */
export const INVOICE_PAGE_CSS = `
*{box-sizing:border-box}
body{margin:0;background:#f3f4f6;color:#1f2937;font:14px/1.45 "Noto Sans","Noto Sans Arabic",system-ui,sans-serif}
main{max-width:880px;margin:24px auto;background:#fff;padding:32px;border-radius:8px;box-shadow:0 1px 3px #0002;position:relative}
.bar{max-width:880px;margin:16px auto 0;text-align:right}
.bar a{display:inline-block;padding:8px 14px;background:#1e3a8a;color:#fff;border-radius:6px;text-decoration:none}
header{display:flex;flex-wrap:wrap;justify-content:space-between;gap:16px;align-items:flex-start}
h1{margin:0;color:#1e3a8a;font-size:28px}
.subtitle{color:#6b7280;margin:2px 0 0}
dl.facts{display:grid;grid-template-columns:auto auto;gap:2px 16px;margin:0}
dl.facts dt{color:#6b7280}
dl.facts dd{margin:0;font-weight:700;text-align:right}
.qr svg{width:120px;height:120px;display:block}
.parties{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:12px;margin:20px 0}
.party{background:#eef2f7;border-radius:6px;padding:12px}
.party h2{margin:0;font-size:11px;letter-spacing:.04em;text-transform:uppercase;color:#6b7280}
.party .name{font-weight:700;font-size:16px;display:block;margin:2px 0}
.party div{overflow-wrap:anywhere}
.amounts-in{text-align:right;color:#6b7280;font-size:12px;margin:0 0 4px}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:12.5px}
th{background:#eef2f7;color:#1e3a8a;text-align:left;padding:6px;vertical-align:bottom}
td{padding:6px;border-bottom:1px solid #e5e7eb;vertical-align:top;overflow-wrap:anywhere}
td.text{min-width:9em}
.money,.quantity,.percent{text-align:right;white-space:nowrap}
.index,.code{white-space:nowrap}
tfoot td{font-weight:700}
.summary{display:flex;flex-wrap:wrap;gap:24px;margin-top:18px;align-items:flex-start}
.summary .tax{flex:1 1 320px;min-width:0}
.summary h3{margin:0 0 6px;font-size:13px}
table.totals{flex:0 1 320px;width:auto;min-width:260px}
table.totals td{border:0;padding:4px 8px}
table.totals .strong td{background:#eef2f7;font-weight:700;font-size:16px}
.words{margin:18px 0 0}
.words span{display:block;color:#6b7280;font-size:11px;font-weight:700}
.signatory{text-align:right;margin-top:24px}
.signatory .line{display:inline-block;border-top:1px solid #d1d5db;margin-top:40px;padding-top:4px;min-width:200px}
.terms h2{font-size:11px;color:#6b7280;text-transform:uppercase;margin:24px 0 4px}
.terms h3{font-size:13px;margin:6px 0 2px}
.terms ul{margin:0;padding-left:18px}
.stamp{position:absolute;top:38%;left:0;right:0;text-align:center;font-size:96px;font-weight:800;color:#b91c1c;opacity:.2;transform:rotate(-30deg);pointer-events:none;margin:0}
@media (max-width:600px){main{padding:16px;margin:0;border-radius:0}h1{font-size:22px}}
@media print{body{background:#fff}main{box-shadow:none;margin:0;max-width:none;padding:0}.bar{display:none}thead{display:table-header-group}tr{break-inside:avoid}.summary,.words,.signatory{break-inside:avoid}}
`;
