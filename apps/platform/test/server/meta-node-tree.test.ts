import { describe, expect, it } from 'vitest'
import { field, parseNodeTree, viewColumnOrigins, type TreeNode } from '../../src/meta/node-tree.js'

// The _RETURN rule of (PG 17 output, shortened where it does not matter):
//   CREATE VIEW odd AS SELECT id AS ":resorigtbl", title AS "a b(c)", 42 AS answer, upper(title) AS shout,
//     author_id AS "1st" FROM books WHERE title <> 'x y'
const ODD_VIEW =
  '({QUERY :commandType 1 :querySource 0 :canSetTag true :utilityStmt <> :resultRelation 0 :hasAggs false :cteList <> ' +
  ':rtable ({RANGETBLENTRY :alias <> :eref {ALIAS :aliasname books :colnames ("id" "author_id" "title")} :rtekind 0 :relid 32421 ' +
  ':inh true :relkind r :rellockmode 1 :perminfoindex 1 :tablesample <> :lateral false :inFromCl true :securityQuals <>}) ' +
  ':jointree {FROMEXPR :fromlist ({RANGETBLREF :rtindex 1}) :quals {OPEXPR :opno 531 :args ({VAR :varno 1 :varattno 3 :location -1} ' +
  '{CONST :consttype 25 :constlen -1 :constbyval false :constisnull false :location -1 :constvalue 7 [ 28 0 0 0 120 32 121 ]}) :location -1}} ' +
  ':targetList (' +
  '{TARGETENTRY :expr {VAR :varno 1 :varattno 1 :vartype 23 :location -1} :resno 1 :resname :resorigtbl :ressortgroupref 0 :resorigtbl 32421 :resorigcol 1 :resjunk false} ' +
  '{TARGETENTRY :expr {VAR :varno 1 :varattno 3 :vartype 25 :location -1} :resno 2 :resname a\\ b\\(c\\) :ressortgroupref 0 :resorigtbl 32421 :resorigcol 3 :resjunk false} ' +
  '{TARGETENTRY :expr {CONST :consttype 23 :constlen 4 :constbyval true :constisnull false :location -1 :constvalue 4 [ 42 0 0 0 0 0 0 0 ]} :resno 3 :resname answer :ressortgroupref 0 :resorigtbl 0 :resorigcol 0 :resjunk false} ' +
  '{TARGETENTRY :expr {FUNCEXPR :funcid 871 :args ({VAR :varno 1 :varattno 3 :location -1}) :location -1} :resno 4 :resname shout :ressortgroupref 0 :resorigtbl 0 :resorigcol 0 :resjunk false} ' +
  '{TARGETENTRY :expr {VAR :varno 1 :varattno 2 :vartype 20 :location -1} :resno 5 :resname \\1st :ressortgroupref 0 :resorigtbl 32421 :resorigcol 2 :resjunk false}' +
  ') :override 0 :onConflict <> :returningList <> :groupClause <> :setOperations <> :constraintDeps <> :stmt_location 0 :stmt_len 0})'

describe('pg_node_tree reader', () => {
  it('finds the origin table and column of each plain view column, and skips computed ones', () => {
    expect(viewColumnOrigins(ODD_VIEW)).toEqual([
      { resno: 1, table: 32421, column: 1 },
      { resno: 2, table: 32421, column: 3 },
      { resno: 5, table: 32421, column: 2 },
    ])
  })

  it('keeps escaped names whole and does not take them for field names', () => {
    const [list] = parseNodeTree(ODD_VIEW) as [TreeNode[]]
    const query = list[0]!
    const entries = field(query, 'targetList') as TreeNode[]
    expect(entries).toHaveLength(5)
    expect(field(entries[1]!, 'resname')).toEqual({ kind: 'atom', text: 'a b(c)', escaped: false })
    expect(field(entries[4]!, 'resname')).toEqual({ kind: 'atom', text: '1st', escaped: true })
    // A column named like a field: the field is the last occurrence.
    expect(field(entries[0]!, 'resorigtbl', true)).toEqual({ kind: 'atom', text: '32421', escaped: false })
  })

  it('answers nothing for text that is not a query', () => {
    expect(viewColumnOrigins('')).toEqual([])
    expect(viewColumnOrigins('({QUERY :commandType 1 :targetList <>})')).toEqual([])
    expect(viewColumnOrigins('({RANGETBLENTRY :alias <>})')).toEqual([])
  })
})
