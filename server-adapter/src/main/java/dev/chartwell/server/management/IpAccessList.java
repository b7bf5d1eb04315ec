package dev.chartwell.server.management;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether a client address may use something guarded by an IP access list: an API key's or a
 * service's {@code ipAccessList} (entries {@code {"source": "10.0.0.0/8", "description": ...}}). An
 * empty list allows every address.
 */
public final class IpAccessList {
  private IpAccessList() {}

  /**
   * @param sources the list's {@code source} entries (addresses or CIDR blocks); empty or {@code
   *     null}: any address
   * @param address the client address ({@code null} when unknown: allowed only by an empty list)
   * @return whether the address is allowed
   */
  public static boolean allows(List<String> sources, InetAddress address) {
    if (sources == null || sources.isEmpty()) {
      return true;
    }
    return address != null
        && sources.stream()
            .anyMatch(
                s -> s != null && IpRange.parse(s).map(r -> r.contains(address)).orElse(false));
  }

  /**
   * @param list a stored {@code ipAccessList} (an array of objects with {@code source}), or a
   *     missing node
   * @return its sources
   */
  public static List<String> sources(com.fasterxml.jackson.databind.JsonNode list) {
    List<String> out = new ArrayList<>();
    if (list != null && list.isArray()) {
      for (com.fasterxml.jackson.databind.JsonNode e : list) {
        out.add(e.path("source").asText(null));
      }
    }
    return out;
  }
}
