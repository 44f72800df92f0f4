import DataSearch from './DataSearch';

/** zb-data-search-new2: the library search with its conditions in one line. */
export default function DataSearchNew() {
  return <DataSearch compact />;
}
