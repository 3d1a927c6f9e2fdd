import { describe, expect, it } from 'vitest'
import { SearchParamsLedger } from '../src/lib/searchParamsLedger'

describe('SearchParamsLedger: a URL write starts from the last write, not the last render', () => {
  it('a second quick write starts from the first one, not yet rendered', () => {
    const ledger = new SearchParamsLedger()
    ledger.rendered('/logs', 'q=a')
    expect(ledger.base('/logs', 'q=a')).toBe('q=a')
    ledger.wrote('/logs', 'q=a&range=24h')
    // The router has not rendered the range yet: the template starts from it anyway.
    expect(ledger.base('/logs', 'q=a')).toBe('q=a&range=24h')
    ledger.wrote('/logs', 'q=b&range=24h&source=edge_logs')
    ledger.rendered('/logs', 'q=a&range=24h')
    expect(ledger.base('/logs', 'q=a&range=24h')).toBe('q=b&range=24h&source=edge_logs')
    ledger.rendered('/logs', 'q=b&range=24h&source=edge_logs')
    expect(ledger.base('/logs', 'q=b&range=24h&source=edge_logs')).toBe('q=b&range=24h&source=edge_logs')
  })

  it('a URL nobody wrote (a link, Back) forgets the pending writes', () => {
    const ledger = new SearchParamsLedger()
    ledger.wrote('/logs', 'range=24h')
    ledger.rendered('/logs', 'range=1h')
    expect(ledger.base('/logs', 'range=1h')).toBe('range=1h')
  })

  it('a write for another page is not a base for this one', () => {
    const ledger = new SearchParamsLedger()
    ledger.wrote('/sql/1', 'tab=results')
    expect(ledger.base('/logs', 'q=a')).toBe('q=a')
    // Nor is a page whose path starts like it.
    ledger.wrote('/logs/explorer', 'q=z')
    expect(ledger.base('/logs', 'q=a')).toBe('q=a')
  })
})
