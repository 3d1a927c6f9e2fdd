import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { rangeBetween, rangeSize, type CellPosition, type CellRange } from './cellRange'
import type { Row } from './values'

interface Selection {
  /** The rows the positions refer to: a new result, sort or filter ends the selection. */
  rows: readonly Row[]
  anchor: CellPosition
  focus: CellPosition
}

const same = (a: CellPosition, b: CellPosition) => a.row === b.row && a.column === b.column

/**
 * A rectangular selection of cells over the rows shown (react-data-grid 7 has one active cell, no
 * ranges): it starts where the pointer went down or the active cell is, and grows with a drag,
 * shift+click or shift+arrows. `columnCount` counts the result's columns (not the row numbers).
 */
export function useCellRange(rows: readonly Row[], columnCount: number) {
  const [selection, setSelection] = useState<Selection | null>(null)
  // The latest selection, read by event handlers that run before React renders again.
  const latest = useRef<Selection | null>(null)
  const dragging = useRef(false)

  const update = useCallback((next: Selection | null) => {
    latest.current = next
    setSelection(next)
  }, [])

  const current = selection && selection.rows === rows ? selection : null
  const range: CellRange | null = useMemo(
    () => (current && rows.length > 0 && columnCount > 0 ? rangeBetween(current.anchor, current.focus, rows.length, columnCount) : null),
    [current, rows.length, columnCount],
  )

  /** Starts a selection at a cell (a plain click, the active cell moving); `drag`: the pointer is down there. */
  const startAt = useCallback(
    (cell: CellPosition, { drag = false } = {}) => {
      dragging.current = drag
      update({ rows, anchor: cell, focus: cell })
    },
    [rows, update],
  )
  const isDragging = useCallback(() => dragging.current, [])

  /** Moves the selection's far corner; starts at `from` when there is no selection yet. */
  const extendTo = useCallback(
    (cell: CellPosition, from: CellPosition = cell) => {
      const prior = latest.current && latest.current.rows === rows ? latest.current : null
      if (prior && same(prior.focus, cell)) return
      update({ rows, anchor: prior?.anchor ?? from, focus: cell })
    },
    [rows, update],
  )

  /** The cell shift+arrow moves the far corner to, from the selection (or `from`, the active cell). */
  const stepFrom = useCallback(
    (from: CellPosition, rowStep: number, columnStep: number): CellPosition => {
      const prior = latest.current && latest.current.rows === rows ? latest.current.focus : from
      return {
        row: Math.max(0, Math.min(rows.length - 1, prior.row + rowStep)),
        column: Math.max(0, Math.min(columnCount - 1, prior.column + columnStep)),
      }
    },
    [rows, columnCount],
  )

  /**
   * The grid's active cell moved: a new selection there, unless the move is the selection's own
   * (shift+arrow and shift+click move the active cell to the far corner).
   */
  const activeMoved = useCallback(
    (cell: CellPosition) => {
      const prior = latest.current
      if (prior && prior.rows === rows && same(prior.focus, cell)) return
      startAt(cell)
    },
    [rows, startAt],
  )

  const selectAll = useCallback(() => {
    if (rows.length > 0 && columnCount > 0) update({ rows, anchor: { row: 0, column: 0 }, focus: { row: rows.length - 1, column: columnCount - 1 } })
  }, [rows, columnCount, update])

  // A drag ends wherever the pointer is let go, inside the grid or not.
  useEffect(() => {
    const stop = () => (dragging.current = false)
    window.addEventListener('pointerup', stop)
    window.addEventListener('blur', stop)
    return () => {
      window.removeEventListener('pointerup', stop)
      window.removeEventListener('blur', stop)
    }
  }, [])

  const size = range ? rangeSize(range) : null
  return { range, size, isDragging, startAt, extendTo, stepFrom, activeMoved, selectAll }
}
