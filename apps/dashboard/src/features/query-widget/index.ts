// Recharts and the results grid load on demand (lazy.ts, ../results-grid): importing this entry is light.
export { QueryResultWidget } from './QueryResultWidget'
export { ResultChart } from './lazy'
export { ViewSwitch } from './ViewSwitch'
export { CHART_HEIGHT, CHART_TEXTS, DEFAULT_CHART, buildChartData, detectXType, type ChartConfig, type XAxisType } from './chart'
