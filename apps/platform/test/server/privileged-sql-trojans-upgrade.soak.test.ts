import { describeTrojans } from './privileged-sql-trojans-cases.js'

/**
 * The major upgrade among the privileged operations (privileged-sql-trojans-cases.ts): a project on 15 full of tenant
 * twins of catalog functions is dumped and restored into 17 by the platform's superuser, and none of the twins runs
 * as it. Soak tier: the dump and restore of thousands of twins takes minutes.
 */
describeTrojans([{ major: '15', upgrade: true }])
