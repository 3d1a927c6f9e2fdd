// Loaded on demand: reports of pinned snippets (the query result widget and the SQL logic it runs).
export { ReportsPage } from '../../features/reports/ReportsPage'
export { ReportPage } from '../../features/reports/ReportPage'
