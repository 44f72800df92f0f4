import { ChartBuilder } from './ChartBuilder';

/** `/data-lake/visualize-chart`: the chart builder, under the data-collection menus. */
export default function DataLakeVisualizeChart() {
  return <ChartBuilder area="data-lake" />;
}
