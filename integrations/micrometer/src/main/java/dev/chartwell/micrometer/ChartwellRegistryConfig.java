package dev.chartwell.micrometer;

import io.micrometer.core.instrument.config.validate.PropertyValidator;
import io.micrometer.core.instrument.push.PushRegistryConfig;

/**
 * How a {@link ChartwellMeterRegistry} publishes: the push registry's {@code step} (how often
 * points are stored, one minute unless set) and {@code enabled}, and the {@code ServiceName} its
 * points carry. Properties are read through {@link #get(String)} with the prefix {@code chartwell},
 * as Micrometer's registries read theirs ({@code chartwell.step}, {@code chartwell.serviceName}).
 */
public interface ChartwellRegistryConfig extends PushRegistryConfig {
  /** Every setting at its default. */
  ChartwellRegistryConfig DEFAULT = key -> null;

  @Override
  default String prefix() {
    return "chartwell";
  }

  /**
   * @return stored as {@code ServiceName} and {@code ResourceAttributes.service.name} (default
   *     {@code unknown_service:java}, OpenTelemetry's default for a Java process)
   */
  default String serviceName() {
    return PropertyValidator.getString(this, "serviceName").orElse("unknown_service:java");
  }
}
