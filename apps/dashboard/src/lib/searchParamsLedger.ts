/**
 * Which URL search a write should start from. React Router applies a search-param change as a navigation that
 * renders after the handler returns, and hands its functional update the params of the last render: two quick
 * changes (a time range, then a template) would both start from the same old URL, and the second would drop the
 * first. The ledger remembers the writes not yet rendered, for the whole page (one URL, many components).
 */
export class SearchParamsLedger {
  /** `pathname?search` of writes not yet seen rendered, oldest first. */
  private pending: string[] = []
  private lastRendered = ''

  /** A render saw this URL: writes up to it are applied; a URL nobody wrote (a link, Back) forgets them all. */
  rendered(pathname: string, search: string): void {
    const url = `${pathname}?${search}`
    if (url === this.lastRendered) return
    this.lastRendered = url
    const at = this.pending.indexOf(url)
    this.pending = at >= 0 ? this.pending.slice(at + 1) : []
  }

  /** The search a write on this page starts from: the last write not yet rendered, else what was rendered. */
  base(pathname: string, rendered: string): string {
    const last = this.pending.at(-1)
    return last?.startsWith(`${pathname}?`) ? last.slice(pathname.length + 1) : rendered
  }

  wrote(pathname: string, search: string): void {
    this.pending.push(`${pathname}?${search}`)
  }
}
