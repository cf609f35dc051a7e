/*
 * The edge's test files import React Router before anything else runs in their workerd.
 * Loading the built worker (`exports.default`) before any file had imported React Router
 * left React without its named exports for every later file that did ("does not provide an
 * export named 'useOptimistic'"); which file ran first depended on file sizes and timings.
 */
import "react-router";
