import { lazyComponent } from '../../lib/lazyComponent'

/** Recharts loads with the charts, not with the page's first paint. */
export const UsageCharts = lazyComponent(() => import('./UsageCharts').then((module) => module.UsageCharts))
