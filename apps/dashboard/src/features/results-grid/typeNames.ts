/** Names of the built-in Postgres types a result column most often has, by oid (pg_type), as psql's \d writes them. */
const TYPE_NAMES = new Map<number, string>([
  [16, 'bool'], [17, 'bytea'], [18, 'char'], [19, 'name'], [20, 'int8'], [21, 'int2'], [23, 'int4'], [24, 'regproc'], [25, 'text'], [26, 'oid'],
  [114, 'json'], [142, 'xml'], [600, 'point'], [601, 'lseg'], [602, 'path'], [603, 'box'], [604, 'polygon'], [628, 'line'], [650, 'cidr'],
  [700, 'float4'], [701, 'float8'], [718, 'circle'], [774, 'macaddr8'], [790, 'money'], [829, 'macaddr'], [869, 'inet'],
  [1000, 'bool[]'], [1001, 'bytea[]'], [1005, 'int2[]'], [1007, 'int4[]'], [1009, 'text[]'], [1014, 'bpchar[]'], [1015, 'varchar[]'], [1016, 'int8[]'],
  [1021, 'float4[]'], [1022, 'float8[]'], [1028, 'oid[]'], [1042, 'bpchar'], [1043, 'varchar'], [1082, 'date'], [1083, 'time'], [1114, 'timestamp'],
  [1115, 'timestamp[]'], [1182, 'date[]'], [1184, 'timestamptz'], [1185, 'timestamptz[]'], [1186, 'interval'], [1231, 'numeric[]'], [1266, 'timetz'],
  [1560, 'bit'], [1562, 'varbit'], [1700, 'numeric'], [2205, 'regclass'], [2206, 'regtype'], [2249, 'record'], [2278, 'void'], [2950, 'uuid'],
  [2951, 'uuid[]'], [3614, 'tsvector'], [3615, 'tsquery'], [3802, 'jsonb'], [3807, 'jsonb[]'], [3904, 'int4range'], [3906, 'numrange'],
  [3908, 'tsrange'], [3910, 'tstzrange'], [3912, 'daterange'], [3926, 'int8range'], [199, 'json[]'], [1270, 'timetz[]'], [1183, 'time[]'],
])

/** The type's name, or its oid for types of extensions and user-defined types (enums, composites). */
export function typeName(oid: number): string {
  return TYPE_NAMES.get(oid) ?? `oid ${oid}`
}
