/**
 * Support requests: their categories.
 * Plain values only, no zod: the dashboard imports these without the schemas (see the contracts README).
 */
export const SUPPORT_CATEGORIES = [
  'Problem',
  'Database_unresponsive',
  'Performance',
  'Billing',
  'Abuse',
  'Refund',
  'Sales_enquiry',
  'Login_issues',
  'Dashboard_bug',
] as const
