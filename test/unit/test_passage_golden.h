/* golden values of test_passage.c: text, k, w, reading, seeds, xor of
 * hash * (index + 1), sum of unit * 1000003 + left * 257 + right, first hash */
{"据新华社北京电，国家统计局今天发布数据显示，前三季度国内生产总值同比增长百分之五点二。专家认为，经济回升向好的态势进一步巩固。", 5, 9, 1, 8, UINT64_C(0x194dde2aecf81c78), UINT64_C(201238264), UINT64_C(0x0210ef62ae5aeb93)},
{"據新華社北京電，國家統計局今天發布數據顯示，前三季度國內生產總值同比增長百分之五點二。專家認為，經濟回升向好的態勢進一步鞏固。", 5, 9, 1, 8, UINT64_C(0x194dde2aecf81c78), UINT64_C(201238264), UINT64_C(0x0210ef62ae5aeb93)},
{"据新华社北京电，国家统计局今天发布数据显示，前三季度国内生产总值同比增长百分之五点二。专家认为，经济回升向好的态势进一步巩固。", 5, 9, 0, 10, UINT64_C(0xc3844b50e607360f), UINT64_C(257390209), UINT64_C(0x468a96a44afd31c9)},
{"The quick brown fox jumps over the lazy dog; the QUICK brown fox jumps over the lazy dog again, and again, and again until the end of the sentence.", 5, 9, 1, 8, UINT64_C(0x639a0d7e28a3e97b), UINT64_C(98263328), UINT64_C(0x2c9bcca593659692)},
{"The quick brown fox jumps over the lazy dog; the QUICK brown fox jumps over the lazy dog again, and again, and again until the end of the sentence.", 3, 4, 1, 16, UINT64_C(0xceb624e0c609575a), UINT64_C(214479490), UINT64_C(0x4c5b58d09535e17b)},
{"混合 text: PostgreSQL 15 的 GIN 索引與 ｆｕｌｌ－ｗｉｄｔｈ letters, café naïve カタカナ 한국어 ไทย", 2, 2, 1, 16, UINT64_C(0x1666d3d844e00d92), UINT64_C(165479343), UINT64_C(0x33c251f840851b6b)},
{"一二三四五", 5, 9, 1, 1, UINT64_C(0x2a5278708e7ee6c7), UINT64_C(29928), UINT64_C(0x2a5278708e7ee6c7)},
{"", 5, 9, 1, 0, UINT64_C(0), UINT64_C(0), UINT64_C(0)},
