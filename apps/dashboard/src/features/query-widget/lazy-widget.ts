import { lazyComponent } from '../../lib/lazyComponent'

/**
 * The widget of reports and the assistant's query blocks (its run gate, parameters and views): on
 * demand too, so the SQL editor, which only needs the view switch and the chart, does not load it.
 */
export const QueryResultWidget = lazyComponent(() => import('./QueryResultWidget').then((module) => module.QueryResultWidget))
