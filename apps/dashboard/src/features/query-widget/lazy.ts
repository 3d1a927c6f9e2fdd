import { lazyComponent } from '../../lib/lazyComponent'

/** The result chart (bar, line, area) with Recharts: loaded on demand, when a result is first shown as a chart. */
export const ResultChart = lazyComponent(() => import('./ResultChart').then((module) => module.ResultChart))

