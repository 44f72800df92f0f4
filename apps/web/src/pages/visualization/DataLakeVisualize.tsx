import { ChartOverviews } from './Overviews';

/** `/data-lake/visualize`: the saved charts and dashboards, under the data-collection menus. */
export default function DataLakeVisualize() {
  return <ChartOverviews area="data-lake" />;
}
