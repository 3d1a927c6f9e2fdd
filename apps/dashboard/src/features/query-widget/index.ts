// Recharts and the results grid load on demand (lazy.ts, ../results-grid): importing this entry is light.
export { ResultChart } from './lazy'
export { QueryResultWidget } from './lazy-widget'
export { ViewSwitch } from './ViewSwitch'
export {
  CHART_HEIGHT, CHART_TEXTS, CHART_TYPE_LABELS, DEFAULT_CHART, buildChartData, detectXType, initialChartConfig, readChartConfig,
  type ChartConfig, type ChartType, type XAxisType,
} from './chart'
