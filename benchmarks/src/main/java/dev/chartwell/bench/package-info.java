/**
 * JMH benchmarks of Chartwell. Build with {@code mvn -B -DskipTests package} and run {@code java
 * -jar benchmarks/target/chartwell-bench.jar <BenchmarkName>}; figures go into BENCHMARKS.md.
 */
package dev.chartwell.bench;
