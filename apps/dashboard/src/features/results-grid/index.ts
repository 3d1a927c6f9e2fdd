export { ResultsGrid } from './ResultsGrid'
export { downloadText } from './values'
