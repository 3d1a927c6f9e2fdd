import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql'

/**
 * pg_graphql's scalars. BigInt and BigFloat travel as strings (JSON numbers lose precision), JSON as its
 * text (pg_graphql stringifies it), dates and times as PostgreSQL's JSON forms of them.
 */
function stringScalar(name: string, description: string, check?: (value: string) => boolean): GraphQLScalarType {
  const accept = (value: unknown): string => {
    // A JSON number loses a BigFloat's digits before it arrives: pg_graphql wants its text.
    if (typeof value === 'number' && name === 'BigFloat') throw new GraphQLError('Invalid input for BigFloat type. String required')
    if (typeof value === 'number' && name === 'BigInt') return String(value)
    if (typeof value !== 'string') throw new GraphQLError(`Invalid input for ${name} type`)
    if (check && !check(value)) throw new GraphQLError(`Invalid input for ${name} type`)
    return value
  }
  return new GraphQLScalarType({
    name,
    description,
    // Columns arrive as text (the compiler casts big numbers); aggregates arrive as JSON numbers, as pg_graphql answers them.
    serialize: (value) => (typeof value === 'string' || typeof value === 'number' ? value : typeof value === 'boolean' ? String(value) : JSON.stringify(value)),
    parseValue: accept,
    parseLiteral: (node: ValueNode) => {
      if (node.kind === Kind.STRING) return accept(node.value)
      if ((node.kind === Kind.INT || node.kind === Kind.FLOAT) && name === 'BigFloat') throw new GraphQLError('Invalid input for BigFloat type. String required')
      if (node.kind === Kind.INT && name === 'BigInt') return node.value
      throw new GraphQLError(`Invalid input for ${name} type`)
    },
  })
}

const integer = (value: string) => /^-?\d+$/.test(value.trim())
const decimal = (value: string) => /^\s*-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$|^\s*-?(NaN|Infinity)\s*$/i.test(value)
const uuid = (value: string) => /^\{?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\}?$/i.test(value)

export const BigIntScalar = stringScalar('BigInt', 'An arbitrary size integer represented as a string', integer)
export const BigFloatScalar = stringScalar('BigFloat', 'A high precision floating point value represented as a string', decimal)
export const CursorScalar = stringScalar('Cursor', 'An opaque string using for tracking a position in results during pagination')
export const DateScalar = stringScalar('Date', 'A date without time information')
export const DatetimeScalar = stringScalar('Datetime', 'A date and time')
export const TimeScalar = stringScalar('Time', 'A time without date information')
export const UUIDScalar = stringScalar('UUID', 'A universally unique identifier', uuid)

/** JSON: given as the JSON text (a string), answered as text; a literal object is accepted too. */
export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'A Javascript Object Notation value serialized as a string',
  serialize: (value) => (typeof value === 'string' ? value : JSON.stringify(value)),
  parseValue: (value) => (typeof value === 'string' ? value : JSON.stringify(value)),
  parseLiteral: (node) => {
    if (node.kind === Kind.STRING) return node.value
    throw new GraphQLError('Invalid input for JSON type')
  },
})

/** Any other type: its JSON form out, and in as given (PostgreSQL casts the text). */
export const OpaqueScalar = new GraphQLScalarType({
  name: 'Opaque',
  description: 'Any type not handled by the type system',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (node) => {
    if (node.kind === Kind.STRING || node.kind === Kind.INT || node.kind === Kind.FLOAT || node.kind === Kind.ENUM) return node.value
    if (node.kind === Kind.BOOLEAN) return node.value
    throw new GraphQLError('Invalid input for Opaque type')
  },
})
