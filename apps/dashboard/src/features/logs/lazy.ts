import { lazyComponent } from '../../lib/lazyComponent'

/** The histogram with Recharts: loaded on demand, when the Logs Explorer first has counts to draw. */
export const LogsHistogram = lazyComponent(() => import('./LogsHistogram').then((module) => module.LogsHistogram))
