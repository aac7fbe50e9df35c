// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.util.BloomFilterUtil;
import org.junit.jupiter.api.Test;
import org.neardup.store.StoreConfig;

class IndexFamilyTest {
  @Test
  void of_noOptions_fastDiffNoBloom8KiB() {
    ColumnFamilyDescriptor f = IndexFamily.of(StoreConfig.of(Map.of())).descriptor();
    assertThat(f.getNameAsString()).isEqualTo("f");
    assertThat(f.getDataBlockEncoding()).isEqualTo(DataBlockEncoding.FAST_DIFF);
    assertThat(f.getBloomFilterType()).isEqualTo(BloomType.NONE);
    assertThat(f.getBlocksize()).isEqualTo(8 * 1024);
    assertThat(f.isInMemory()).isFalse();
    assertThat(f.isPrefetchBlocksOnOpen()).isTrue();
    assertThat(f.getMaxVersions()).isEqualTo(1);
  }

  @Test
  void of_options_namesCaseInsensitive_prefixFilterOnTheRowsPrefix() {
    ColumnFamilyDescriptor f =
        IndexFamily.of(
                StoreConfig.of(
                    Map.of(
                        "index-encoding", "row_index_v1",
                        "index-bloom", "RowPrefix_Fixed_Length",
                        "index-block-bytes", "16384",
                        "index-in-memory", "true",
                        "index-prefetch", "false")))
            .descriptor();
    assertThat(f.getDataBlockEncoding()).isEqualTo(DataBlockEncoding.ROW_INDEX_V1);
    assertThat(f.getBloomFilterType()).isEqualTo(BloomType.ROWPREFIX_FIXED_LENGTH);
    assertThat(f.getConfigurationValue(BloomFilterUtil.PREFIX_LENGTH_KEY)).isEqualTo("10");
    assertThat(f.getBlocksize()).isEqualTo(16384);
    assertThat(f.isInMemory()).isTrue();
    assertThat(f.isPrefetchBlocksOnOpen()).isFalse();
  }

  @Test
  void of_badValues_throwNamingTheOption() {
    assertThatThrownBy(() -> IndexFamily.of(StoreConfig.of(Map.of("index-encoding", "zip"))))
        .hasMessageContaining("index-encoding")
        .hasMessageContaining("zip");
    assertThatThrownBy(() -> IndexFamily.of(StoreConfig.of(Map.of("index-bloom", "yes"))))
        .hasMessageContaining("index-bloom");
    assertThatThrownBy(() -> IndexFamily.of(StoreConfig.of(Map.of("index-block-bytes", "8k"))))
        .hasMessageContaining("index-block-bytes");
    assertThatThrownBy(() -> IndexFamily.of(StoreConfig.of(Map.of("index-block-bytes", "512"))))
        .hasMessageContaining("index-block-bytes");
    assertThatThrownBy(() -> IndexFamily.of(StoreConfig.of(Map.of("index-in-memory", "1"))))
        .hasMessageContaining("index-in-memory");
    assertThatThrownBy(() -> IndexFamily.of(StoreConfig.of(Map.of("index-prefetch", "yes"))))
        .hasMessageContaining("index-prefetch")
        .hasMessageContaining("yes");
  }

  @Test
  void importEncoding_rowIndexKept_prefixEncodingsLeftToCompaction() {
    assertThat(IndexFamily.importEncoding(DataBlockEncoding.ROW_INDEX_V1))
        .isEqualTo(DataBlockEncoding.ROW_INDEX_V1);
    assertThat(IndexFamily.importEncoding(DataBlockEncoding.FAST_DIFF))
        .isEqualTo(DataBlockEncoding.NONE);
    assertThat(IndexFamily.importEncoding(DataBlockEncoding.NONE))
        .isEqualTo(DataBlockEncoding.NONE);
  }
}
