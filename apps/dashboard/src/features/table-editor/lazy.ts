import { lazyComponent } from '../../lib/lazyComponent'

/**
 * The table editor's heavy parts, each in its own chunk: the grid (react-data-grid) loads when a
 * table is first shown, the CSV import when it is first opened. The list of tables and the page
 * frame do not wait for them (bench/first-load.ts).
 */
export const RowsGrid = lazyComponent(() => import('./RowsGrid').then((module) => module.RowsGrid))
export const ImportCsvDialog = lazyComponent(() => import('./ImportCsvDialog').then((module) => module.ImportCsvDialog), null)
