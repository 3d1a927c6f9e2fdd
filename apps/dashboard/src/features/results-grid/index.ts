import { lazyComponent } from '../../lib/lazyComponent'

/** The grid with react-data-grid: loaded on demand, when a page first shows result rows. */
export const ResultsGrid = lazyComponent(() => import('./ResultsGrid').then((module) => module.ResultsGrid))
