import { ROW_COUNT_CAP, type PageCursor } from '@stratum/sql'
import { ChevronFirst, ChevronLast, ChevronLeft, ChevronRight } from 'lucide-react'
import { IconButton } from '../../components/ui/Button'
import type { PagerState } from './paging'

interface PagerProps {
  state: PagerState
  count: number | undefined
  estimate: number
  filtered: boolean
  onMove: (cursor: PageCursor) => void
}

function countLabel(count: number | undefined, estimate: number, filtered: boolean): string {
  if (count === undefined) return ''
  if (count <= ROW_COUNT_CAP) return `${count.toLocaleString()} ${count === 1 ? 'row' : 'rows'}${filtered ? ' match' : ''}`
  const over = `More than ${ROW_COUNT_CAP.toLocaleString()} rows${filtered ? ' match' : ''}`
  return !filtered && estimate > ROW_COUNT_CAP ? `${over} (about ${estimate.toLocaleString()})` : over
}

/** First, previous, next and last page, with the row count beside them. */
export function Pager({ state, count, estimate, filtered, onMove }: PagerProps) {
  return (
    <div className="te-pager">
      <span className="te-count" aria-live="polite">
        {countLabel(count, estimate, filtered)}
      </span>
      <div className="te-pager-buttons" role="group" aria-label="Pages">
        <IconButton label="First page" icon={<ChevronFirst size={16} aria-hidden="true" />} disabled={!state.canFirst} onClick={() => onMove(state.first)} />
        <IconButton
          label="Previous page"
          icon={<ChevronLeft size={16} aria-hidden="true" />}
          disabled={!state.canPrevious}
          onClick={() => state.previous && onMove(state.previous)}
        />
        <IconButton label="Next page" icon={<ChevronRight size={16} aria-hidden="true" />} disabled={!state.canNext} onClick={() => state.next && onMove(state.next)} />
        <IconButton label="Last page" icon={<ChevronLast size={16} aria-hidden="true" />} disabled={!state.canLast} onClick={() => onMove(state.last)} />
      </div>
    </div>
  )
}
