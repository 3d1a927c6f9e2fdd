import { lazyComponent } from '../../lib/lazyComponent'

/** The grid with react-data-grid: loaded on demand, when a page first shows result rows. */
export const ResultsGrid = lazyComponent(() => import('./ResultsGrid').then((module) => module.ResultsGrid))

/** The cell viewer alone (the table editor's grid uses it), with the grid's styles it needs. */
export const CellViewerDialog = lazyComponent(() =>
  Promise.all([import('./CellViewerDialog'), import('./results-grid.css')]).then(([module]) => module.CellViewerDialog),
)
export type { ViewedCell } from './CellViewerDialog'
export { typeName } from './typeNames'
export type { WholeResultExport } from './ResultsGrid'
