import { useCallback, useLayoutEffect } from 'react'
import { useLocation, useSearchParams, type NavigateOptions } from 'react-router'
import { SearchParamsLedger } from './searchParamsLedger'

const ledger = new SearchParamsLedger()

export type SetLatestSearchParams = (next: URLSearchParams | ((current: URLSearchParams) => URLSearchParams), options?: NavigateOptions) => void

/**
 * useSearchParams, except that an update starts from the last URL written, even one the router has not rendered
 * yet (see SearchParamsLedger): quick successive changes from any component of the page keep each other.
 */
export function useLatestSearchParams(): [URLSearchParams, SetLatestSearchParams] {
  const [params, setParams] = useSearchParams()
  const { pathname } = useLocation()
  const search = params.toString()
  useLayoutEffect(() => ledger.rendered(pathname, search), [pathname, search])

  const set = useCallback<SetLatestSearchParams>(
    (next, options) => {
      const value = typeof next === 'function' ? next(new URLSearchParams(ledger.base(pathname, search))) : next
      ledger.wrote(pathname, value.toString())
      setParams(value, options)
    },
    [pathname, search, setParams],
  )
  return [params, set]
}
