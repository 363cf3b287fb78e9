package conform
