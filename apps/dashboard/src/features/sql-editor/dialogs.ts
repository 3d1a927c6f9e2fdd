import { lazyComponent } from '../../lib/lazyComponent'

/** The URL parameters that open the SQL editor's dialogs (links and the browser's history reach them). */
export const ONGOING_QUERIES_PARAM = 'viewOngoingQueries'
export const QUERY_HISTORY_PARAM = 'queryHistory'

/** Loaded when first opened, in their own chunks: the editor's first load does not wait for them. */
export const OngoingQueriesDialog = lazyComponent(() => import('./OngoingQueriesDialog').then((module) => module.OngoingQueriesDialog), null)
export const QueryHistoryDialog = lazyComponent(() => import('./QueryHistoryDialog').then((module) => module.QueryHistoryDialog), null)
