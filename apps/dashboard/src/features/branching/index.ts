// The branching feature: the Branches page with the enable-branching dialog, the Add-ons page (PITR) and the Point in time page.
export { BranchesPage } from './branches/BranchesPage'
export { AddonsPage } from './addons/AddonsPage'
export { PitrPage } from './pitr/PitrPage'
export { EnableBranchingDialog } from './enable/EnableBranchingDialog'
