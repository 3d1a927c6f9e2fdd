import { describe, expect, it } from 'vitest'
import { inferImportType } from '../src/features/table-editor/csv-types'

describe('inferImportType (issue 33 item 12: every imported column was text)', () => {
  it.each([
    [['1', '42', '-7', ''], 'int8'],
    [['1', '2.5', '1e3'], 'numeric'],
    [['true', 'FALSE', 'true'], 'bool'],
    [['6f1c2a9e-3b4d-4c5e-8f90-1a2b3c4d5e6f', '00000000-0000-0000-0000-000000000000'], 'uuid'],
    [['2026-12-03', '1999-01-31'], 'date'],
    [['2026-12-03 10:15:00', '2026-12-03T10:15'], 'timestamp'],
    [['2026-12-03T10:15:00Z', '2026-12-03 10:15:00+01:00'], 'timestamptz'],
    [['{"a": 1}', '[1, 2]'], 'jsonb'],
    [['1', 'two'], 'text'],
    [['{not json'], 'text'],
    [['99999999999999999999'], 'numeric'],
    [['2026-13-45'], 'text'],
    [[], 'text'],
    [['', '  '], 'text'],
  ] as const)('%j -> %s', (values, type) => {
    expect(inferImportType([...values])).toBe(type)
  })
})
