import type { ReactNode } from 'react'
import { errorMessage } from '../../data/api'
import { Alert } from './Alert'
import { Button } from './Button'
import { LoadingState } from './Spinner'

/** What QueryState reads of a TanStack query (or anything shaped like one). */
interface LoadedData {
  isPending: boolean
  isError: boolean
  error: unknown
  refetch: () => unknown
}

interface QueryStateProps {
  query: LoadedData
  /** The spinner's text ('Loading backups…'); left out: 'Loading…'. */
  loadingLabel?: string
  /** The failure's title ('Could not load the backups'); the error's message is its body. */
  errorTitle?: string
  /** Put before the error's message when there is no title ('Failed to load reports: '). */
  errorLead?: string
  /** Offer 'Try again' under a failure (refetches the query). */
  retry?: boolean
  /** Loaded, but nothing to show: `empty` replaces `children`. */
  isEmpty: boolean
  empty: ReactNode
  children: ReactNode
}

/**
 * The states of a page's main list, in one place: a spinner while loading, the error (with a
 * retry) when loading failed, the empty state when there is nothing, else the content.
 */
export function QueryState({ query, loadingLabel, errorTitle, errorLead = '', retry = true, isEmpty, empty, children }: QueryStateProps) {
  if (query.isPending) return <LoadingState label={loadingLabel} />
  if (query.isError) return <QueryError query={query} title={errorTitle} lead={errorLead} retry={retry} />
  return <>{isEmpty ? empty : children}</>
}

/** A query that failed to load: its message under a title, with 'Try again' (refetches it). */
export function QueryError({ query, title, lead = '', retry = true }: { query: LoadedData; title?: string; lead?: string; retry?: boolean }) {
  return (
    <Alert
      tone="danger"
      title={title}
      actions={
        retry ? (
          <Button size="sm" onClick={() => void query.refetch()}>
            Try again
          </Button>
        ) : undefined
      }
    >
      {lead}
      {errorMessage(query.error)}
    </Alert>
  )
}
