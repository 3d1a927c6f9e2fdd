/** A query block dragged from the assistant onto a report: the report saves it as a snippet and pins it. */
export const QUERY_DRAG_TYPE = 'application/x-stratum-query'

export interface DraggedQuery {
  label: string
  sql: string
}

export function readDraggedQuery(data: DataTransfer): DraggedQuery | null {
  const text = data.getData(QUERY_DRAG_TYPE)
  if (!text) return null
  try {
    const value = JSON.parse(text) as Partial<DraggedQuery>
    return typeof value.label === 'string' && typeof value.sql === 'string' ? { label: value.label, sql: value.sql } : null
  } catch {
    return null
  }
}
