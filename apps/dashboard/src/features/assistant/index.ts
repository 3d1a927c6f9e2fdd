// The AI assistant of the right panel; the report page takes query blocks dragged from it.
export { AssistantPanel } from './AssistantPanel'
export { QUERY_DRAG_TYPE, readDraggedQuery, type DraggedQuery } from './dragged-query'
