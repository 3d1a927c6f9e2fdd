import { AI_DISCLAIMER_COMMENT } from '@stratum/contracts'
import { describe, expect, it } from 'vitest'
import { applyCompletion, cleanCompletion, minimalEdit } from '../src/features/sql-editor/ai/applyCompletion'

/** Splits a document at the markers [[ and ]] (the selection), as the editor hands it over. */
function parts(doc: string, completion: string) {
  const start = doc.indexOf('[[')
  const end = doc.indexOf(']]')
  return { before: doc.slice(0, start), selection: doc.slice(start + 2, end), after: doc.slice(end + 2), completion }
}

describe('cleanCompletion', () => {
  it('keeps plain SQL and trims blank lines around it', () => {
    expect(cleanCompletion('\n\nselect 1;\n\n')).toBe('select 1;')
    expect(cleanCompletion('  select 1;')).toBe('  select 1;')
  })

  it('drops a Markdown fence, also while it is still streaming', () => {
    expect(cleanCompletion('```sql\nselect 1;\n```')).toBe('select 1;')
    expect(cleanCompletion('```\nselect 1;\n```\n')).toBe('select 1;')
    expect(cleanCompletion('```sql\nselect 1')).toBe('select 1')
    expect(cleanCompletion('```sql\nselect 1;\n``')).toBe('select 1;')
    expect(cleanCompletion('```sql')).toBe('')
  })

  it('leaves backticks inside SQL alone when there is no fence', () => {
    expect(cleanCompletion("select '```' as ticks")).toBe("select '```' as ticks")
  })
})

describe('applyCompletion', () => {
  it('replaces the selection and puts the disclaimer on its own line above the SQL', () => {
    const result = applyCompletion(parts('select 1;\n[[select * from todos;]]\nselect 3;', 'select count(*) from public.todos;'))
    expect(result.text).toBe(`select 1;\n${AI_DISCLAIMER_COMMENT}\nselect count(*) from public.todos;\nselect 3;`)
    expect(result.inserted).toBe(`${AI_DISCLAIMER_COMMENT}\nselect count(*) from public.todos;`)
    expect(result.text.slice(result.start, result.end)).toBe(result.inserted)
  })

  it('adds the disclaimer only once: not when the document already has it', () => {
    const doc = `${AI_DISCLAIMER_COMMENT}\nselect 1;\n[[select 2;]]`
    const result = applyCompletion(parts(doc, 'select 22;'))
    expect(result.text).toBe(`${AI_DISCLAIMER_COMMENT}\nselect 1;\nselect 22;`)
    expect(result.text.split(AI_DISCLAIMER_COMMENT)).toHaveLength(2)
  })

  it('adds it again when the selection that held it is replaced', () => {
    const result = applyCompletion(parts(`[[${AI_DISCLAIMER_COMMENT}\nselect 1;]]`, 'select 2;'))
    expect(result.text).toBe(`${AI_DISCLAIMER_COMMENT}\nselect 2;`)
  })

  it('does not add it when the model wrote it itself', () => {
    const result = applyCompletion(parts('[[]]', `${AI_DISCLAIMER_COMMENT}\nselect 2;`))
    expect(result.text).toBe(`${AI_DISCLAIMER_COMMENT}\nselect 2;`)
  })

  it('keeps the indentation of a selection that starts a line', () => {
    const result = applyCompletion(parts('begin;\n  [[select 1;]]\ncommit;', 'select 2;'))
    expect(result.text).toBe(`begin;\n  ${AI_DISCLAIMER_COMMENT}\n  select 2;\ncommit;`)
  })

  it('starts a new line for the disclaimer when the selection is in the middle of a line', () => {
    const result = applyCompletion(parts('select * from [[todos]] where done;', 'public.todos'))
    expect(result.text).toBe(`select * from \n${AI_DISCLAIMER_COMMENT}\npublic.todos where done;`)
  })

  it('inserts at the cursor and keeps the following text on its own line', () => {
    expect(applyCompletion(parts('[[]]select 2;', 'select 1;')).text).toBe(`${AI_DISCLAIMER_COMMENT}\nselect 1;\nselect 2;`)
    expect(applyCompletion(parts('select 1;\n[[]]', 'select 2;')).text).toBe(`select 1;\n${AI_DISCLAIMER_COMMENT}\nselect 2;`)
    expect(applyCompletion(parts('[[]]', 'select 1;')).text).toBe(`${AI_DISCLAIMER_COMMENT}\nselect 1;`)
  })

  it("keeps the selection's trailing line break, not the model's blank lines", () => {
    const result = applyCompletion(parts('[[select 1;\n]]select 2;', '\nselect 10;\n\n\n'))
    expect(result.text).toBe(`${AI_DISCLAIMER_COMMENT}\nselect 10;\nselect 2;`)
  })

  it('strips a Markdown fence from the answer', () => {
    expect(applyCompletion(parts('[[x]]', '```sql\nselect 1;\n```')).text).toBe(`${AI_DISCLAIMER_COMMENT}\nselect 1;`)
  })

  it('leaves the document as it is while nothing usable has arrived', () => {
    const result = applyCompletion(parts('a [[b]] c', '```sql\n'))
    expect(result.text).toBe('a b c')
    expect(result.inserted).toBe('b')
  })
})

describe('minimalEdit', () => {
  it('returns null for equal texts', () => {
    expect(minimalEdit('abc', 'abc')).toBeNull()
  })

  it('replaces only the part that differs', () => {
    expect(minimalEdit('select 1;\nselect 3;', 'select 1;\nselect 2;\nselect 3;')).toEqual({ start: 17, end: 17, text: '2;\nselect ' })
    expect(minimalEdit('abcdef', 'abXYef')).toEqual({ start: 2, end: 4, text: 'XY' })
    expect(minimalEdit('abc', '')).toEqual({ start: 0, end: 3, text: '' })
  })

  it('applied to the old text gives the new one, also around repeated and astral characters', () => {
    const cases: [string, string][] = [
      ['aaaa', 'aaaaaa'],
      ['x😀y', 'x😁y'],
      ['select 1', 'select 1;\n-- more'],
      ['', 'select 1'],
    ]
    for (const [from, to] of cases) {
      const edit = minimalEdit(from, to)!
      expect(from.slice(0, edit.start) + edit.text + from.slice(edit.end)).toBe(to)
      expect(edit.text).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/)
    }
  })
})
