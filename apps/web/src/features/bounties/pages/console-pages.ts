/** The console's bounty pages in one part: one entry in the app's route table (routes.tsx), one download. */
export { default as BountiesAdminPage } from './bounties-admin-page';
export { default as BountySubmissionsPage } from './bounty-submissions-page';
