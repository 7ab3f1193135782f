import MovieSearchCLI

MovieSearchCommand.main()
