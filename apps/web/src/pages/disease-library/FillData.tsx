import { LibraryJobsPage } from './LibraryJobs';

/** fill_data: the library's fill jobs, and starting one. */
export default function FillData() {
  return <LibraryJobsPage kind="fill" />;
}
