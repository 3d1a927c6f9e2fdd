export { QueryResultWidget } from './QueryResultWidget'
export { ResultChart, ViewSwitch } from './ResultChart'
export { CHART_HEIGHT, CHART_TEXTS, DEFAULT_CHART, buildChartData, detectXType, type ChartConfig, type XAxisType } from './chart'
